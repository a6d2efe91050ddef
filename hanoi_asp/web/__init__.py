"""The browser playground: ``hanoi-asp serve``."""
