"""Example scheduling policies written in Python for adaptsim (docs/python.md).

Run one with PYTHONPATH=<checkout>/examples:<build>/python and
    adaptsim run --policy py:adaptsim_examples.max_min_fairness:MaxMinFairness ...
"""
