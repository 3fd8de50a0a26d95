"""Reads a screen (80 columns) on stdin and prints it with what depends on real time masked, so a
live screen and its replay on the virtual clock compare equal: the ripple's animation (the panel
right of the SMS buttons), every time and lateness figure (a recording keeps whole milliseconds; a
live run measures lateness, a replay gives 0), the uploads' sink path; runs of spaces collapse."""
import re
import sys

for number, line in enumerate(sys.stdin.read().rstrip("\n").split("\n")):
    if 1 <= number <= 6:
        line = line[:43]
    line = re.sub(r"\d+(\.\d+)?(µs|ms|s)\b", "_", line)
    line = re.sub(r"→ dir[^─]*", "→ dir", line)
    print(re.sub(r"[ ─]+", " ", line).rstrip())
