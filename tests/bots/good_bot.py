"""Well-behaved: plays the first legal move, quits when asked."""
import botlib

botlib.run("good_bot")
