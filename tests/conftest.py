def pytest_configure(config):
    config.addinivalue_line('markers', 'alone: a test that must not share the machine with another (tools/test.sh runs it last, alone)')
