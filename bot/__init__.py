"""The bot: the platform-neutral table service and the Telegram and Discord adapters.

Importing it sets one default of the process (before :mod:`numpy` loads, so in the decision
and drawing workers too: their forkserver preloads ``bot.pictures`` first): numpy's BLAS
runs one thread (``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS``; a value set in the
environment stays). The computer players' fitted value multiplies small matrices
(:mod:`game.adp`), where BLAS threads only spin: with them, on 2 cores, a ``strong`` decision
in the decision process took 61 ms mean instead of 39 and the event loop, whose presses of
other tables wait meanwhile, lagged 3.3 ms mean (8.4 max) instead of 0.4 (2.4)
(``bench/bench_thinking.py --hands 3 --pictures 0``).
"""

import os as _os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    _os.environ.setdefault(_name, "1")
