"""The sandbox side: code that runs in the same process as a submission.

It imports nothing from the judge side; the judge side imports only ``protocol`` from here.
"""
