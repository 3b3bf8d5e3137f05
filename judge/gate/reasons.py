"""Why the source gate refuses a construct: the reasons shared by several checks, in the words a
student reads in the verdict message (``Finding.reason``). Reasons used by one check only are
written where that check is."""

DUNDER = "dunder attributes can reach the judge's own state"
PRIVATE = ("private attributes are another object's internals; only attributes your own "
           "classes set on self or cls may start with '_'")
PRIVATE_SELF = ("only private attributes your own classes set (self._x = ... in a method) "
                "or define in a class body may be used on self or cls")
REFLECTIVE = "frames, code objects and tracebacks expose the running program's internals"
MODULE_NAME = ("it is the name of a module the judge does not allow, and a static check "
               "cannot tell which object it is taken from")
DENIED = ("it exposes JAX or NumPy internals, callbacks, files or memory; a problem can "
          "allow it with allowed_imports")
LITERAL_NAME = "the attribute name must be a string literal, so the judge can check it"
FORMAT_FIELD = "format fields with '.' or '[' read attributes and items of the arguments"
FORMAT_LITERAL = "the format string must be a literal, so the judge can check its fields"
STORE_MODULE = ("assigning to or deleting attributes of an imported module or function "
                "changes code the judge also uses")
DUNDER_NAME = "names like __builtins__ reach the interpreter's internals"
DUNDER_STRING = ("a string naming a dunder or frame attribute can reach it through functions "
                 "that take attribute names")
CLASS_FROM_DATA = ("a class built from a dict or list of names can define any attribute, "
                   "and the judge cannot check names that are data")
