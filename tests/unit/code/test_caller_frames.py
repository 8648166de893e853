"""A node that reads its caller's frame gets no test: the test module would decide it."""

from __future__ import annotations

import textwrap

from remora.code.values.caller_frames import caller_frame_reason

# The shape of ply's lex(): the rules come from the calling module unless given.
_LEXER = textwrap.dedent(
    """
    import sys

    def get_caller_module_dict(levels):
        f = sys._getframe(levels)
        ldict = f.f_globals.copy()
        return ldict

    def lex(module=None, debug=False):
        if module is None:
            ldict = get_caller_module_dict(2)
        else:
            ldict = dict(vars(module))
        return sorted(ldict)

    def tokens(text):
        return text.split()

    class Reflect:
        def where(self):
            return self._frame()

        def _frame(self):
            import inspect
            return inspect.stack()[1]
    """
)


def test_a_function_reaching_a_frame_read_through_a_helper_is_refused() -> None:
    reason = caller_frame_reason(_LEXER, "lex")
    assert reason is not None
    assert reason.startswith("it calls get_caller_module_dict, which reads its caller's frame")


def test_the_frame_reader_itself_is_refused() -> None:
    reason = caller_frame_reason(_LEXER, "get_caller_module_dict")
    assert reason is not None and reason.startswith("it reads its caller's frame")


def test_a_method_reaching_inspect_stack_through_self_is_refused() -> None:
    assert caller_frame_reason(_LEXER, "Reflect.where") is not None


def test_a_function_reading_no_frame_is_tested() -> None:
    assert caller_frame_reason(_LEXER, "tokens") is None


def test_an_attribute_named_stack_on_another_object_is_no_frame() -> None:
    text = "class Parser:\n    def top(self):\n        return self.stack[-1]\n"
    assert caller_frame_reason(text, "Parser.top") is None
