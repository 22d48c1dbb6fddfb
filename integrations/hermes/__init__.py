"""Spillway plugin for Hermes Agent: guards every tool result through a local `spillway serve`.

Install: copy this folder to ~/.hermes/plugins/spillway and run `hermes plugins enable spillway`.
Settings (environment): SPILLWAY_URL (default http://127.0.0.1:7341), SPILLWAY_HOME (where the
token file is, default ~/.spillway) or SPILLWAY_TOKEN.
"""
from .client import SpillwayClient
from .shim import SpillwayShim


def register(ctx):
    SpillwayShim(SpillwayClient()).register(ctx)
