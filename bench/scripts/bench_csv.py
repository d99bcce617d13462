"""Shared by the plotting and report scripts of bench/scripts: reading the
benchmarks' CSV files."""

import csv
import math


def load(path):
    """The rows of the CSV file at path, as dicts keyed by its header."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(s):
    """s as a float; NaN when it is empty, missing or not a number."""
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan
