"""Authoring: the scenario editor, its checks, balance studies and publishing a scenario as a folder."""
