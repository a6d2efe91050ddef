"""Outputs: results as text for people (rich), JSON for machines, and pictures
(text boards, SVG, GIF, PNG, an HTML player).  Nothing here prints; the command line does."""
