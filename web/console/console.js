// The console's shared enhancements (every page that asks for it): nothing yet.
