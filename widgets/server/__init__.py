"""The servers: the ``house-divided`` command, the voila application behind ``app`` and ``classroom``,
their pages, the teacher's handlers, kernels, seats and hardening."""
