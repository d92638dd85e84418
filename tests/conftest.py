import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The property tests draw the same examples on every run ("derandomize"): the suite's time and
# verdict are the same from one run to the next (a random draw of slow examples once took a test
# from 1 s to 8 s).  `python -m pytest --hypothesis-profile=explore` draws fresh examples (and
# keeps the failing ones in .hypothesis/), to look for new failures.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("repeatable")
