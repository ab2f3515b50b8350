"""What the app teaches while one plays: the guided first game ("Learn by playing"), the Rules tab, and
the debrief of a finished game beside the real war."""
