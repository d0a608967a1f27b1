"""Errors are thresher.Error exceptions by kind, with the CLI's messages."""

import pytest

import thresher


def test_unknown_option_has_the_configuration_message(cli, tmp_path):
    with pytest.raises(thresher.ConfigError) as err:
        thresher.extract("<p>x</p>", treshold=0.8)
    message = str(err.value)
    config = tmp_path / "bad.yaml"
    config.write_text("treshold: 0.8\n")
    proc = cli("--config", config, "extract", tmp_path, check=False)
    assert proc.returncode == 2
    # The same serde message: the unknown key and the keys expected.
    core = message.split("options: ", 1)[1]
    assert "unknown field `treshold`" in core
    assert core.split(" at line")[0] in proc.stderr


def test_bad_values_and_the_family():
    assert issubclass(thresher.ConfigError, thresher.Error)
    assert issubclass(thresher.InputError, thresher.Error)
    assert issubclass(thresher.IndexStoreError, thresher.Error)
    assert not issubclass(thresher.IndexStoreError, IndexError)
    with pytest.raises(thresher.ConfigError, match="cross-page method|unknown variant"):
        thresher.extract("<p>x</p>", cross_page="sometimes")
    with pytest.raises(thresher.ConfigError, match="group depth"):
        thresher.group_key("http://a.example/", "deep")
    with pytest.raises(thresher.InputError, match="fetched_at"):
        thresher.extract("<p>x</p>", "http://a.example/", fetched_at="yesterday")
    with pytest.raises(thresher.ConfigError, match="unknown field"):
        thresher.dedup([], thresold=0.8)
    with pytest.raises(thresher.ConfigError, match="unknown field"):
        thresher.GroupExtractor(no_such_option=True)


def test_docstrings_everywhere():
    for name in thresher.__all__:
        obj = getattr(thresher, name)
        if callable(obj):
            assert obj.__doc__, name
    for cls in (thresher.GroupExtractor, thresher.Index):
        for attr in dir(cls):
            if not attr.startswith("_"):
                assert getattr(cls, attr).__doc__, f"{cls.__name__}.{attr}"
