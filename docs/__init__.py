"""The user documentation, shipped inside the package as ``sleuth.docs``: ``sleuth docs PAGE`` shows a page."""
