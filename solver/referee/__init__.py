"""Referees: independent replays of solutions, one per family of rules."""
