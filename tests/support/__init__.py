"""Helpers shared by the test suites: real servers and processes, never stubs."""
