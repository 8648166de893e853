# -*- coding: utf-8 -*-
"""Old summary."""

VALUE = 1
