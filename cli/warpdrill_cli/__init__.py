"""WarpDrill's student command line client (`warpdrill`): the site's JSON API v1 from a terminal."""

__version__ = "0.1.0"
