"""The database: tables, migrations and the store (SQLModel on SQLite or PostgreSQL)."""
