"""Text made safe for XML (``hanoi_asp/outputs/safe_text.py``), checked against the XML 1.0
specification's own ``Char`` production over every code point."""

from __future__ import annotations

from hanoi_asp.outputs.safe_text import xml_text

XML_CHAR = [(0x9, 0x9), (0xA, 0xA), (0xD, 0xD), (0x20, 0xD7FF), (0xE000, 0xFFFD)]
XML_CHAR += [(0x10000, 0x10FFFF)]
"""XML 1.0 (fifth edition) section 2.2: ``Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] |
[#xE000-#xFFFD] | [#x10000-#x10FFFF]``."""


def test_xml_text_escapes_exactly_the_characters_xml_forbids() -> None:
    allowed = "".join(chr(code) for low, high in XML_CHAR for code in range(low, high + 1))
    assert xml_text(allowed) == allowed
    forbidden = [
        chr(code)
        for code in range(0x110000)
        if not any(low <= code <= high for low, high in XML_CHAR)
    ]
    assert (
        len(forbidden) == 0x110000 - len(allowed) == 29 + 2048 + 2
    )  # controls, surrogates, U+FFFE and U+FFFF
    for char in forbidden:
        escaped = xml_text(char)
        assert escaped == ascii(char)[1:-1] and escaped.startswith("\\")
