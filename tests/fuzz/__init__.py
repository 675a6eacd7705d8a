"""Fuzzing of tinyc (issue 13): program generators, mutators, shell sessions, the differential runner."""
