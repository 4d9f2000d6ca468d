"""Bot accounts: registering, changing and removing bots (each change pinged first), their tokens,
and the rate limits on what one client may ask.
"""
