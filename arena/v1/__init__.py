"""Generated from protos/arena/v1 by protos/generate.py: do not edit."""
