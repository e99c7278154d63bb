"""Hermes loads the plugin itself, through the context-engine selection an ``AIAgent`` makes at
start-up: from a sandboxed home where the plugin was copied and ``context.engine: vcc`` set (with
``plugins.enabled: [vcc]`` on releases whose engine loader does not look in the home), and after
``vcc hermes install --activate`` wrote both itself."""

from __future__ import annotations

from engine_selection import SESSION_ID, assert_hermes_runs_the_sandboxed_vcc, start_agent
from hermes_release import RELEASE
from hermes_sandbox import Sandbox, compact, load_history
from sample_windows import generated_window
from summary_checks import section_problems


def test_hermes_loads_the_plugin_copied_into_its_home(sandbox: Sandbox) -> None:
    sandbox.copy_plugin()
    sandbox.write_config()
    config = (sandbox.home / "config.yaml").read_text()
    assert ("plugins:" in config) != RELEASE.user_engine_loader, "only what the release needs"
    agent, logs = start_agent(sandbox, sandbox.open_store(), [])
    assert_hermes_runs_the_sandboxed_vcc(sandbox, agent, logs)


def test_hermes_loads_the_plugin_after_vcc_hermes_install_activate(sandbox: Sandbox) -> None:
    sandbox.write_config(engine=None, enable_plugin=False)
    installed = sandbox.install_with_cli("--activate")
    assert installed.returncode == 0, installed.stderr
    config = (sandbox.home / "config.yaml").read_text()
    assert "engine: vcc" in config and "vcc" in config.split("plugins:", 1)[-1]
    store = sandbox.open_store()
    agent, logs = start_agent(sandbox, store, generated_window(404, 80_000))
    assert_hermes_runs_the_sandboxed_vcc(sandbox, agent, logs)

    done = compact(agent, load_history(store, SESSION_ID), force=True)
    started = [m for m in done.vcc_logs() if m.startswith("vcc: starting")]
    assert len(started) == 1 and "vcc.json in the plugin directory" in started[0]
    assert done.llm.calls == [] and section_problems(done.summary) == []
