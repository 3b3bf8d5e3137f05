"""Reporters: each turns a ``GradeResult`` into one output format and never runs anything."""

from judge.reports import gradescope, json_report, junit, text

FORMATS = {"text": text.render, "json": json_report.render, "gradescope": gradescope.render,
           "junit": junit.render_grade}
