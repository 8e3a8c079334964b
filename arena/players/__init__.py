"""Managed bot processes: started, kept, limited, restarted and stopped."""
