// CityPackIndex module.
