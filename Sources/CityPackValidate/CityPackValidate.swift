// CityPackValidate module.
