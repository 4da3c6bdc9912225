"""The test suite as a package: its helpers are ``tests.helpers.*``; ``tests/README.md``
maps each folder and file to what it covers."""
