"""B2 — two "identical" SFT runs differ by 0.5 points on the eval; a colleague says the new config
is better. Which parts' tools decide it? (part 7, §五.B question 2; parts 2 and 6).

Part 6: first diff the seven-item records (commit, data version, environment, seed may differ),
and one number is no conclusion (changing the seed alone moved a 20-step run by 0.14). Part 2:
run several seeds, report mean and std, and read the eval table with its ci95.
Accuracies are fractions in [0, 1].
"""


def diff_records(a: dict, b: dict) -> list[str]:
    """The settings in which two run records differ.

    Args:
        a, b: run records with the seven items ``run_id, commit, config, data_version, seed,
            environment, metrics`` (values are str, int or dicts).

    Returns:
        The sorted list of the keys among ``commit, config, data_version, seed, environment``
        whose values differ (run_id and metrics always differ and are not settings).

    Source: part 6, must-remember "a run record has seven items"; part 7 §五.B question 2.
    """
    raise NotImplementedError("B2: diff_records")


def verdict(scores_a: list[float], scores_b: list[float], n_questions: int) -> str:
    """Is the difference between two configs real?

    Args:
        scores_a, scores_b: eval accuracies of several seeds of each config.
        n_questions: the eval set's size.

    Returns:
        ``"need_more_seeds"`` if either config has fewer than 2 seeds; otherwise ``"real"`` if
        the mean +- std bands (sample std, ddof=1) do not overlap AND the difference of the means
        exceeds the ci95 half-width 1.96 x sqrt(p(1-p)/n) at p = the average of the two means;
        else ``"not_shown"``.

    Source: part 2, must-remember "ci95 = 1.96 sqrt(p(1-p)/n)"; "bands that overlap show no difference".
    """
    raise NotImplementedError("B2: verdict")
