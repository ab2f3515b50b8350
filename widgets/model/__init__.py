"""The app's model: one game as a session of traitlets (the game, its players and the computer's pacing,
what a click means, the war-odds timeline, files) and the app's words. No widget is built here."""
