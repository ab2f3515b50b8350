"""The board a student plays on: the ipyleaflet map and its card layer, the side panel, the charts, a
replay, the battle-odds explorer. Views observe a session (:mod:`widgets.model`) and hand it gestures."""
