#!/usr/bin/env python3
# A comment about the script.
"""Print the command line."""

import sys

print(sys.argv)
