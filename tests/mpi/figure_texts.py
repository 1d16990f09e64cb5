"""Test helper: reads the text elements back from every matplotlib Figure that
the save() function of analysis/adaptsim_style.py writes, and fails on one that contains '{' or exceeds 40
characters (adaptsim_style.MAX_TEXT)."""
import adaptsim_style


def check_saved_figures():
    """From now on every figure saved through adaptsim_style.save is checked first; returns the
    list that collects the texts seen (for further assertions)."""
    seen = []
    original = adaptsim_style.save

    def save(fig, data, folder, name):
        for text in adaptsim_style.texts(fig):
            assert "{" not in text and len(text) <= adaptsim_style.MAX_TEXT, \
                f"{name}: text {text!r}"
            seen.append(text)
        original(fig, data, folder, name)

    adaptsim_style.save = save
    return seen
