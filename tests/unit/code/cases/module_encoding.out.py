# -*- coding: utf-8 -*-
"""Hold one value.

More about it.
"""

VALUE = 1
