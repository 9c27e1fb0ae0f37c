"""Toy: a tiny high-card game with hidden hands, the second implementation of
:class:`cards.protocol.Game` (the contract test plays it beside Golf).

It imports only the card kernel (``cards``): no web framework, no database.

>>> from tests.toy import TOY
>>> TOY.info.name, TOY.info.presets
('toy', ('long', 'quick'))
"""

from tests.toy.game import TOY, Toy

__all__ = ["TOY", "Toy"]
