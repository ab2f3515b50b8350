"""Play a classmate: the classroom's game store, each player's seat in a stored game, the app's section
that creates and joins games, and the teacher's views of the stored games."""
