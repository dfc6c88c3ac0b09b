"""OpenATC's implementation of GE's Python packages (README.md "Python custom ops")."""
