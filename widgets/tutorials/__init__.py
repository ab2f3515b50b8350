"""The tutorial notebooks' helpers: positions on the live map and exercises that check themselves.
Above :mod:`widgets.app`, since a tutorial shows the whole app on a position."""
