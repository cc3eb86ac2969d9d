"""An outside Clue bot that never answers (the arena must time it out and go on)."""
import sys
import time

sys.stdin.readline()
time.sleep(3600)
