"""The crash test of issue 10: the bot runs as a subprocess on a real SQLite file against the
local fake Bot API, is killed with SIGKILL at chosen points, restarted and each game finished."""
