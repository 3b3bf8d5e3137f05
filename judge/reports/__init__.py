"""Reporters: each turns a ``GradeResult`` into one output format and never runs anything."""

from . import json_report, text

FORMATS = {"text": text.render, "json": json_report.render}
