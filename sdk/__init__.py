"""The Card Arena bot SDK: subclass :class:`Bot`, call :func:`run`, and you are playing.

    from sdk import Bot, run

    class Cautious(Bot):
        def act(self, observation, legal_actions):
            return legal_actions[-1]

    if __name__ == "__main__":
        run(Cautious)

The SDK needs only grpcio, protobuf and the pure game engines: never the
server's database code.
"""

from sdk.bot import Bot, MatchInfo, Result

__all__ = ["Bot", "MatchInfo", "Result"]
