"""What the tests share (``from tests.helpers.oracle import brute_force``); no tests here.
``tests/README.md`` lists each helper."""
