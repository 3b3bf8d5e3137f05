from judge.entry import run

run()
