"""PostgreSQL backend that starts the embedded server on the first connection."""

from django.db.backends.postgresql import base

from veterans_ai.embedded_pg import server_ensure


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        server = server_ensure()
        self.settings_dict["HOST"] = server.host
        self.settings_dict["PORT"] = str(server.port)
        params = super().get_connection_params()
        params["host"] = server.host
        params["port"] = server.port
        return params
