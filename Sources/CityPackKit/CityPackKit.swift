// CityPackKit module.
