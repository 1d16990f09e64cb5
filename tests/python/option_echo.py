"""A round policy that reports the options it was built with (tests/python/test_policy_errors.py
checks that `--policy-option flag=False` reaches it as the boolean False)."""

import sys


class OptionEcho:
    """Runs the lowest job id that fits; prints its options once on stderr."""

    def __init__(self, **options):
        for key in ("flag", "other"):
            if key in options and not isinstance(options[key], bool):
                raise TypeError(f"{key}={options[key]!r} is not a bool")
        if "nothing" in options and options["nothing"] is not None:
            raise TypeError(f"nothing={options['nothing']!r} is not None")
        text = " ".join(f"{k}={v!r}" for k, v in sorted(options.items(), key=lambda kv: kv[0]))
        print(f"option_echo: {text}", file=sys.stderr)

    def plan_round(self, state):
        free, chosen = state.num_gpus, []
        for job in state.jobs:
            if job.scale_factor <= free:
                chosen.append(job.id)
                free -= job.scale_factor
        return chosen
