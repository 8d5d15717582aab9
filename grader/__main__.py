"""``python -m grader``: the same command line as ``grader``."""

import sys

from grader.cli import main

sys.exit(main())
