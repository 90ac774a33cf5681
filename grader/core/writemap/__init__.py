"""The write map: which thread wrote each element of an output buffer, drawn as an SVG grid.

model.py: the WriteMap record (and the textbook mapping's, launch_map); svg.py: drawing one;
store.py: keeping one with a result (encode/decode) and drawing a stored one.
"""
