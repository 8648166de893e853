#!/usr/bin/env python3
# A comment about the script.
import sys

print(sys.argv)
