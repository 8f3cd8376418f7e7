"""doc/higher_order_xor.py: the table of doc/interactions.md on XOR of 2
to 5 bits, signed against absolute ranking."""
from tests.test_docs import load_script


def test_the_table():
    """Two sizes of a 2-bit and a 4-bit XOR: every method finds the 2
    bits; MultiSURF weighs the 4 bits below 0, so that only the
    magnitude finds them, given the instances."""
    script = load_script("doc/higher_order_xor.py", "higher_order_xor")
    lines = script.table(sizes=(200, 1600), orders=(2, 4), replicates=3)
    assert lines[0].startswith("| bits | n | ReliefF signed |")
    rows = [line.strip("| ").split(" | ") for line in lines[2:]]
    assert [row[:2] for row in rows] == [["2", "200"], ["2", "1600"],
                                         ["4", "200"], ["4", "1600"]]
    assert rows[1][2:6] == ["1.00"] * 4
    multisurf_signed, multisurf_absolute, negative = rows[3][4:]
    assert multisurf_signed == "0.00" and negative == "1.00"
    assert float(multisurf_absolute) > 0
