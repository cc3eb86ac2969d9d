"""An outside Clue bot that answers garbage (the arena must put it out of the game and go on)."""
import sys

for _line in sys.stdin:
    print("hello, I am not JSON", flush=True)
