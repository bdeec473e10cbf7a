// CityPackIngest module.
